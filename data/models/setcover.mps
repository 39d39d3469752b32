* A set cover: cover elements e1..e5 with the fewest sets s1..s5.
* s1 = {e1,e2}, s2 = {e2,e3,e4}, s3 = {e4,e5}, s4 = {e1,e5}, s5 = {e3}.
NAME setcover
ROWS
 N  cost
 G  e1
 G  e2
 G  e3
 G  e4
 G  e5
COLUMNS
 M1 'MARKER' 'INTORG'
 s1 cost 1 e1 1
 s1 e2 1
 s2 cost 1 e2 1
 s2 e3 1 e4 1
 s3 cost 1 e4 1
 s3 e5 1
 s4 cost 1 e1 1
 s4 e5 1
 s5 cost 1 e3 1
 M2 'MARKER' 'INTEND'
RHS
 rhs e1 1 e2 1
 rhs e3 1 e4 1
 rhs e5 1
BOUNDS
 UP bnd s1 1
 UP bnd s2 1
 UP bnd s3 1
 UP bnd s4 1
 UP bnd s5 1
ENDATA
