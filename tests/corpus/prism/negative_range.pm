dtmc
module M
 x : [-5..5] init -5;
 [] x<5 -> 0.5:(x'=x+1) + 0.5:(x'=-x);
 [] x=5 -> true;
endmodule
