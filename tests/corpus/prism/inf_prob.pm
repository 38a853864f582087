dtmc
module M
 x : [0..2] init 1;
 [] x=1 -> 1/0:(x'=0);
 [] x!=1 -> true;
endmodule
