-- order check: for each row, the next seq of the same order must be seq+1,
-- and no other row of the order may carry the same seq
select a.order_no, a.seq,
       (select min(b.seq) from processed b where b.order_no = a.order_no and b.seq > a.seq) as next_seq,
       (select count(*) from processed c where c.order_no = a.order_no and c.seq = a.seq) as same_seq
from processed a
where (select min(b.seq) from processed b where b.order_no = a.order_no and b.seq > a.seq) > a.seq + 1
   or (select count(*) from processed c where c.order_no = a.order_no and c.seq = a.seq) > 1;
