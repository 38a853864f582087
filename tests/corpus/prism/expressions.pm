dtmc
const double p = pow(2.0,-1) + log(8,2)/6 - floor(1.5) + ceil(0.2) - round(0.4) + min(0,1,2) + max(0.0, -1);
const bool b = true => false <=> !true | false ? true : false;
module M x : [0..1] init 0; [] x=0 -> p:(x'=1) + (1-p):(x'=0); [] x=1 -> true; endmodule
