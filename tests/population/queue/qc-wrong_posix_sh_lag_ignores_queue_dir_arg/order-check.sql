-- same seq twice in an order
select a.order_no, a.seq, 'duplicate' from processed a, processed b
 where a.order_no = b.order_no and a.seq = b.seq and a.msg_id < b.msg_id
union
-- seq with no seq+1 in the order, though a bigger seq exists
select a.order_no, a.seq + 1, 'missing' from processed a, processed c
 where c.order_no = a.order_no and c.seq > a.seq
   and not exists (select 1 from processed b where b.order_no = a.order_no and b.seq = a.seq + 1);
