dtmc
const int N = 3;
module walk
 x : [0..N];
 b : bool;
 [] x<N -> 0.5:(x'=x+1) + 0.5:(b'=!b);
 [] x=N -> true;
endmodule
init x<=1 & !b endinit
label "top" = x=N;
