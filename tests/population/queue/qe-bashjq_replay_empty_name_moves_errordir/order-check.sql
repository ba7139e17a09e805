-- dup: same order_no + seq twice (self join)
select a.order_no, a.seq, 'dup'
  from processed a
  join processed b on b.order_no = a.order_no and b.seq = a.seq and b.msg_id > a.msg_id
union
-- gap: seq+1 is not there although a bigger seq exists in the same order
select a.order_no, a.seq + 1, 'gap'
  from processed a
 where exists     (select 1 from processed b where b.order_no = a.order_no and b.seq > a.seq + 1)
   and not exists (select 1 from processed c where c.order_no = a.order_no and c.seq = a.seq + 1);
