dtmc
module M
 x : [0..1] init 0;
 [go] x=0 -> (x'=1);
 [go] x=1 -> (x'=0);
endmodule
module N
 y : [0..2] init 0;
 [go] y<2 -> 0.3:(y'=y+1) + 0.7:(y'=0);
 [go] y=2 -> (y'=0);
 [] true -> true;
endmodule
rewards "g" [go] true : 1; [] x=1 : 0.5; endrewards
