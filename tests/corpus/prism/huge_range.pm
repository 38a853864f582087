dtmc
const int N = 2000000000;
module M
 x : [0..N] init 0;
 [] x<N -> (x'=x+1);
 [] x=N -> true;
endmodule
