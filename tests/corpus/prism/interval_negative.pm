dtmc
module M
 s : [0..2];
 [] s=0 -> [-0.1,0.2]:(s'=1) + [0.8,0.9]:(s'=2);
 [] s>0 -> true;
endmodule
