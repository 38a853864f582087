dtmc
module M
 x : [0..3] init 0;
 [] x<3 -> 0.2:(x'=x+1) + 0.2:(x'=x);
 [] x=3 -> true;
endmodule
