dtmc
module m
 x : [0..3] init 0;
 [] x<2 -> (x'=x+1);
endmodule
