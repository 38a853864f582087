dtmc
const double p;
module gambler
  x : [0..10] init 3;
  [] x>0 & x<10 -> p : (
rewards "rounds"
  x>0 & x<10 : 1;
endrewards
