// plain and interval probabilities in one command; a repeated destination
// adds its intervals; an upper end above what the others allow is trimmed
dtmc
module M
 s : [0..3];
 [] s=0 -> [0.1,0.2]:(s'=1) + [0.3,0.4]:(s'=1) + 0.4:(s'=2) + [0,0.3]:(s'=3);
 [] s>0 -> (s'=s);
endmodule
label "one" = s=1;
