dtmc
const int c = 99999999999;
