-- order-check.sql
-- Problem rows in processed: a seq that occurs twice in one order_no, or a seq with no
-- successor seq+1 although a larger seq exists in that order_no (a hole).
SELECT p.order_no,
       p.seq,
       CASE
           WHEN (SELECT COUNT(*) FROM processed d WHERE d.order_no = p.order_no AND d.seq = p.seq) > 1
               THEN 'DUPLICATE'
           ELSE 'GAP_AFTER'
       END AS issue
  FROM processed p
 WHERE (SELECT COUNT(*) FROM processed d WHERE d.order_no = p.order_no AND d.seq = p.seq) > 1
    OR (    NOT EXISTS (SELECT 1 FROM processed n WHERE n.order_no = p.order_no AND n.seq = p.seq + 1)
        AND EXISTS     (SELECT 1 FROM processed m WHERE m.order_no = p.order_no AND m.seq > p.seq));
