// crosscheck --via-explicit: the tools get the chain proper built, not this
// text, so the constants and formulas the properties use go in the
// properties as what they stand for (prism.h, proper_prism_props_standalone)
dtmc
const int N = 4;
const double p = 0.3;
const double half = 1;
const int lo = -1;
const bool fast = true;
formula atmax = x=N;
formula near = x >= N-1 & !(x=lo) & (fast ? true : false);
formula scaled = max(x, 1) * half / 2 + pow(2, x) - floor(p*10) + mod(x, 3);
module m
  x : [0..N] init 0;
  [] x<N -> p:(x'=x+1) + (1-p):(x'=x);
  [] x=N -> true;
endmodule
rewards "steps" true : 1; endrewards
