dtmc
module M
 x : [0..3] init 0;
 [] x<3 -> (x'=x+2);
endmodule
