dtmc
ÿ module