select order_no, seq, n from (
  select order_no, seq, count(*) over (partition by order_no, seq) n,
         lead(seq) over (partition by order_no order by seq) nx
  from processed)
where n > 1 or nx - seq > 1 or seq is null;
