-- same seq twice in one order
select order_no, seq, 'duplicate' as what
  from processed
 group by order_no, seq
having count(*) > 1
union all
-- orders whose seqs do not fill min..max (a hole somewhere)
select order_no, min(seq) || '..' || max(seq), 'hole'
  from processed
 group by order_no
having count(distinct seq) <> max(seq) - min(seq) + 1;
