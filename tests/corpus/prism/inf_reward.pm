dtmc
module M
 x : [0..2] init 1;
 [] x=1 -> 0.5:(x'=0) + 0.5:(x'=2);
 [] x!=1 -> true;
endmodule
rewards x=1 : 1/0; endrewards
