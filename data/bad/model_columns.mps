NAME bad
ROWS
 N obj
 G c1
COLUMNS
 x c1 1 obj
ENDATA
