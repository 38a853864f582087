dtmc
module M
 x : [0..1] init 0;
 [] "lab" -> (x'=1);
endmodule
