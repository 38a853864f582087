ctmc
module M
 s : [0..2];
 [] s=0 -> [1,2]:(s'=1);
 [] s>0 -> true;
endmodule
