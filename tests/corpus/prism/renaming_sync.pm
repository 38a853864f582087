dtmc
module M
 x : [0..1] init 0;
 b : bool init false;
 [a] x=0 -> (x'=1);
 [] true -> (b'=!b);
endmodule
module N = M [x=y, b=c, a=a2] endmodule
module O = M [x=z, b=e] endmodule
