-- 순서 검증 쿼리 (정상이면 0행)
-- 1) 중복 seq
select order_no, seq, count(*) as cnt, '중복' as kind
from processed group by order_no, seq having count(*) > 1
union all
-- 2) 빈 seq: 주문별 (max-min+1) 보다 서로 다른 seq 개수가 적으면 어딘가 비어 있음
select order_no, null, max(seq) - min(seq) + 1 - count(distinct seq), '누락'
from processed group by order_no
having count(distinct seq) < max(seq) - min(seq) + 1;
