-- order-check.sql: same order_no, seq twice, or a seq missing
-- (1) duplicated seq
SELECT order_no, seq, 'dup' AS problem
  FROM processed
 GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
-- (2) seq+1 is absent although the order goes on past seq  => hole after seq
SELECT a.order_no, a.seq + 1, 'gap'
  FROM processed a
 WHERE NOT EXISTS (SELECT 1 FROM processed b
                    WHERE b.order_no = a.order_no AND b.seq = a.seq + 1)
   AND EXISTS     (SELECT 1 FROM processed c
                    WHERE c.order_no = a.order_no AND c.seq > a.seq);
