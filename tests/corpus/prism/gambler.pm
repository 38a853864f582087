// Gambler's ruin: start with `start` units, win a unit with probability p,
// lose one otherwise, stop at 0 (ruin) or N (target).
dtmc

const int N = 10;
const int start = 3;
const double p;

module gambler
  x : [0..N] init start;

  [] x>0 & x<N -> p : (x'=x+1) + (1-p) : (x'=x-1);
  [] x=0 | x=N -> true;
endmodule

label "win" = x=N;
label "ruin" = x=0;

rewards "rounds"
  x>0 & x<N : 1;
endrewards
