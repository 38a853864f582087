dtmc
module M
 x : [0..3] init 0;
 [] x<3 -> 0.5:(x'=x+1) + 0.5:(x'=x);
 [] x=3 -> true;
endmodule
label "top" = x=3;
rewards "r" x<3 : 1; [] x=3 : 2; endrewards
