-- gaps-and-islands: within one order, seq - row_number() is constant for a gap-free,
-- duplicate-free run. A duplicate or a hole of any width starts a new "island".
with numbered as (
    select order_no,
           seq,
           seq - row_number() over (partition by order_no order by seq) as island
    from processed
)
select order_no,
       count(distinct island) as islands,
       group_concat(seq) as seqs
from numbered
group by order_no
having count(distinct island) > 1;
