// --exact decides comparisons of non-integer values that read the state
// exactly, state by state: (s+1)*1/3 = 0.333333333333333333333333 is false
// (PRISM's exact-eval-4), and so is the guard's s/3 = 0.333...
dtmc
module M
 s : [0..3] init 0;
 [] s=0 -> 1/2:(s'=((s+1)*1/3 = 0.333333333333333333333333 ? 1 : 2)) + 1/2:(s'=2);
 [] s=2 & (s-1)/3 = 0.333333333333333333 -> (s'=3);
 [] s>0 -> true;
endmodule
label "one" = s=1;
