-- duplicated seq in an order
select order_no, seq, 'dup' as why
from processed
group by order_no, seq
having count(*) > 1
union all
-- seq s exists, s+1 does not, and there is a bigger seq later in the same order = hole
select a.order_no, a.seq + 1, 'missing'
from processed a
where not exists (select 1 from processed b where b.order_no = a.order_no and b.seq = a.seq + 1)
  and exists     (select 1 from processed c where c.order_no = a.order_no and c.seq > a.seq + 1)
union all
select order_no, null, 'null seq' from processed where seq is null;
