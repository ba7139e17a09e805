-- order-check.sql : seq problems per order_no (0 rows = clean)

-- (1) the same seq twice in one order: two different messages, same order_no and seq
SELECT a.order_no, a.seq, 'duplicate seq' AS problem
FROM processed a
JOIN processed b
  ON b.order_no = a.order_no
 AND b.seq = a.seq
 AND b.msg_id > a.msg_id

UNION

-- (2) a hole: seq+1 is not there although a bigger seq of the same order is
SELECT a.order_no, a.seq + 1, 'missing seq after ' || a.seq
FROM processed a
LEFT JOIN processed nxt
  ON nxt.order_no = a.order_no
 AND nxt.seq = a.seq + 1
WHERE nxt.msg_id IS NULL
  AND EXISTS (SELECT 1 FROM processed later
              WHERE later.order_no = a.order_no AND later.seq > a.seq)
ORDER BY 1, 2;
