select order_no, seq, count(*) as n, 'duplicate seq' as issue
from processed
group by order_no, seq
having count(*) > 1
union all
select order_no, null, max(seq) - min(seq) + 1 - count(distinct seq), 'missing seq'
from processed
group by order_no
having max(seq) - min(seq) + 1 > count(distinct seq);
