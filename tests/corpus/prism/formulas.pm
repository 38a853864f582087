dtmc
formula f0 = x;
formula f1 = f0+f0;
formula f2 = f1+f1;
formula f3 = f2*f2;
module M
 x : [0..2] init 0;
 [] f3 < 100 -> (x'=mod(x+1,3));
endmodule
