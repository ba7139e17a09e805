-- duplicated seq: another row of the same order with the same seq
SELECT a.order_no, a.seq, 'dup' AS what
FROM processed a JOIN processed b
  ON b.order_no = a.order_no AND b.seq = a.seq AND b.msg_id <> a.msg_id
UNION
-- hole: a seq below the order's max whose successor seq+1 is not there
SELECT a.order_no, a.seq + 1, 'missing'
FROM processed a
LEFT JOIN processed nxt ON nxt.order_no = a.order_no AND nxt.seq = a.seq + 1
WHERE nxt.msg_id IS NULL
  AND EXISTS (SELECT 1 FROM processed c WHERE c.order_no = a.order_no AND c.seq > a.seq);
