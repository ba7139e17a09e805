-- seq problems inside one order (dup or hole)
select order_no, seq, prev, 'dup' as what from (
  select order_no, seq, lag(seq) over (partition by order_no order by seq) as prev from processed
) where seq = prev
union all
select order_no, seq, prev, 'hole' from (
  select order_no, seq, lag(seq) over (partition by order_no order by seq) as prev from processed
) where seq > prev + 1;
