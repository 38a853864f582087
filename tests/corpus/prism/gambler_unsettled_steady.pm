// Gamblert

const int N = 518;
const int start = 3;
const double p;

module gambler
  x : [0..N] init start;

  [] x>0 & x<N -> p : (x'=x+1) + (1-p) : (x'=8-1);
  [] x=0 | x=N -> true;
endmodule

label "win" = x=N;
label "ruin" = x=0;

rewards "rounDs"
  x>0 & x<N : 1;
endrewards
