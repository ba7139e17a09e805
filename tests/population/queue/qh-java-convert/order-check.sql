-- Sequence check per order_no.
-- Duplicated seq : the same (order_no, seq) appears more than once.
-- Missing seq    : between MIN(seq) and MAX(seq) of an order, some value has no row.
--                  Detected as a row whose successor (seq + 1) does not exist although
--                  it is not the last seq of the order.
SELECT order_no, seq, 'DUPLICATE' AS issue
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION
SELECT cur.order_no, cur.seq + 1, 'MISSING' AS issue
FROM processed AS cur
JOIN (SELECT order_no, MAX(seq) AS max_seq FROM processed GROUP BY order_no) AS lim
  ON lim.order_no = cur.order_no
LEFT JOIN processed AS nxt
  ON nxt.order_no = cur.order_no AND nxt.seq = cur.seq + 1
WHERE cur.seq < lim.max_seq
  AND nxt.msg_id IS NULL;
