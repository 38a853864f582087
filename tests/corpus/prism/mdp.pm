mdp
module M x:[0..1]; endmodule
