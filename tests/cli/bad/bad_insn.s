; a bad program
frobnicate x=1
