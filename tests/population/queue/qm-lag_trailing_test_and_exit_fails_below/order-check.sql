select order_no, seq, prev from (
  select order_no, seq, lag(seq) over (partition by order_no order by seq) prev from processed
) where prev is not null and seq != prev + 1;
