dtmc
module M
 x : [0..3] init 0;
 [] x<3 -> 0.5:(x'=x+1) + 0.5:(x'=x)
endmodule
