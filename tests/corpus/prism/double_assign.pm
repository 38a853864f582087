dtmc
module M
 x : [0..1] init 0;
 [] x=0 -> 0.5:(x'=1) + 0.5:(x'=1) & (x'=0);
endmodule
