* A set cover: cover elements e1..e5 with the fewest sets s1..s5.
* s1 = {e1,e2}, s2 = {e2,e3,e4}, s3 = {e4,e5}, s4 = {e1,e5}, s5 = {e3}.
* Fields in the columns of fixed MPS, so that free and fixed readers agree.
NAME          SETCOVER
ROWS
 N  cost
 G  e1
 G  e2
 G  e3
 G  e4
 G  e5
COLUMNS
    MARKER    'MARKER'                 'INTORG'
    s1        cost      1              e1        1
    s1        e2        1
    s2        cost      1              e2        1
    s2        e3        1              e4        1
    s3        cost      1              e4        1
    s3        e5        1
    s4        cost      1              e1        1
    s4        e5        1
    s5        cost      1              e3        1
    MARKER    'MARKER'                 'INTEND'
RHS
    RHS       e1        1              e2        1
    RHS       e3        1              e4        1
    RHS       e5        1
BOUNDS
 UP BND       s1        1
 UP BND       s2        1
 UP BND       s3        1
 UP BND       s4        1
 UP BND       s5        1
ENDATA
