// Two states, long-run average reward: pi0 = q/(p+q), step reward 1 in s=0 and 2 in s=1 (a transition reward)
dtmc
const double p;
const double q;
module M
  s : [0..1] init 0;
  [] s=0 -> p:(s'=1) + (1-p):(s'=0);
  [] s=1 -> q:(s'=0) + (1-q):(s'=1);
endmodule
rewards "r" s=0 : 1; [] s=1 : 2; endrewards
