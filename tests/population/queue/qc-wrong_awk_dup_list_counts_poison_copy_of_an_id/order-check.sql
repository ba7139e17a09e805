select order_no, count(*) as n, count(distinct seq) as distinct_seqs, min(seq) as first_seq, max(seq) as last_seq
from processed
group by order_no
having count(*) > count(distinct seq)
    or max(seq) - min(seq) + 1 > count(distinct seq);
