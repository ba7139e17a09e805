-- dup seq per order
select order_no, seq, count(*) as n from processed group by order_no, seq having count(*) > 1
union all
-- hole: a seq whose successor is missing but is not the last of its order
select p.order_no, p.seq + 1, 0 from processed p
 where p.seq < (select max(seq) from processed m where m.order_no = p.order_no)
   and not exists (select 1 from processed s where s.order_no = p.order_no and s.seq = p.seq + 1);
