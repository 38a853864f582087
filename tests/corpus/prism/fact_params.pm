dtmc
// FACT's parameter forms (the PROPER artifact's models): counts, a data file
param double p;
param double y = 40530 59460 10;
param double n1 = "logs/n1.csv";
const double q = n12/(1+n11);
module M
  s : [0..3] init 0;
  [] s=0 -> y1:(s'=1) + y2:(s'=2) + (1-y1-y2):(s'=3);
  [] s=1 -> p:(s'=0) + (1-p):(s'=3);
  [] s=2 -> q:(s'=0) + (1-q):(s'=3);
  [] s=3 -> true;
endmodule
