dtmc
module m
 x : [0..1] init 0;
 [] x=0 -> [0.2,0.4]:(x'=1) + [0.6,0.8]:(x'=0);
 [] x=1 -> true;
endmodule
