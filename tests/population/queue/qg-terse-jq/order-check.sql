select order_no, prev, seq from (select order_no, seq, lag(seq) over (partition by order_no order by seq) prev from processed) where seq - prev <> 1;
