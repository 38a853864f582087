// A birth-death chain on 0..N: up with probability b, down with probability c,
// otherwise stay. Its stationary distribution is geometric: pi(k) ~ (b/c)^k.
dtmc

const int N = 6;
const double b = 0.3;
const double c = 0.5;

module queue
  n : [0..N] init 0;

  [] n=0 -> b : (n'=1) + (1-b) : (n'=0);
  [] n>0 & n<N -> b : (n'=n+1) + c : (n'=n-1) + (1-b-c) : (n'=n);
  [] n=N -> c : (n'=N-1) + (1-c) : (n'=N);
endmodule

rewards "length"
  true : n;
endrewards
