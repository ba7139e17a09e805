-- 주문마다 seq 가 MIN..MAX 로 빈틈없이 한 번씩 있으면 행 수 = MAX - MIN + 1.
-- 중복이 있으면 행 수가 늘고, 빠진 게 있으면 줄어든다 -> 같지 않으면 문제.
select order_no, min(seq) as lo, max(seq) as hi, count(*) as n
from processed
group by order_no
having max(seq) - min(seq) + 1 <> count(*);
