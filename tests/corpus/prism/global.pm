dtmc
global g : [0..2] init 0;
module a
 x : [0..1] init 0;
 [] g<2 -> 0.5:(g'=g+1) + 0.5:(x'=1-x);
 [] g=2 -> true;
endmodule
module b = a [x=y] endmodule
