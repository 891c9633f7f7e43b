#!/usr/bin/env bash
# Sends one signed sample event to a GST Compliance Trigger, so the editor shows the trigger's
# output before the service sends anything. Inside n8n, the GST Compliance node's Test Event →
# Send does the same with the trigger's own credential (send-test-event.json); this script is for
# a terminal. On the trigger, copy the Test URL (Webhook URLs, at the top of its parameters) and
# click "Execute step" (n8n listens for 2 minutes, for one event), then run
#
#   GST_SIGNING_SECRET='<the signing secret in the node's credential>' \
#     ./send-test-event.sh '<Test URL>' [event type, default einvoice.failed]
#
# The body is an event envelope as docs/service-api.md ("Event envelope") describes it, with
# made-up resource values under ids that start with evt_sample_; it is signed as the service signs
# deliveries ("Signature verification": HMAC-SHA256 of "<t>.<body>"), so the node verifies it like
# a real one. Needs bash, curl and openssl.
set -euo pipefail

url="${1:?usage: GST_SIGNING_SECRET=… $0 <Test URL> [event type]}"
type="${2:-einvoice.failed}"
secret="${GST_SIGNING_SECRET:?set GST_SIGNING_SECRET to the signing secret of the node credential}"

case "$type" in
einvoice.generated) status=generated ;;
einvoice.cancelled) status=cancelled ;;
einvoice.failed) status=failed_terminal ;;
ewaybill.generated) status=generated ;;
ewaybill.cancelled) status=cancelled ;;
ewaybill.expired) status=expired ;;
ewaybill.rejected) status=rejected ;;
*)
	echo "unknown event type $type" >&2
	exit 2
	;;
esac

now="$(date -u +%Y-%m-%dT%H:%M:%S.000Z)"
t="$(date -u +%s)"
suffix="$(openssl rand -hex 12)"
if [[ "$type" == einvoice.failed ]]; then
	# A failed e-invoice has no IRN, acknowledgement number or date: its generation gives them.
	data='{"id":"einv_sample_'"$suffix"'","object":"einvoice","status":"'"$status"'","irn":"","ackNumber":"","ackDate":"","sellerGstin":"29AAACB1234C1Z5","invoiceNumber":"INV/SAMPLE/0001","totalInvoiceValue":118000}'
elif [[ "$type" == einvoice.* ]]; then
	data='{"id":"einv_sample_'"$suffix"'","object":"einvoice","status":"'"$status"'","irn":"'"$(openssl rand -hex 32)"'","ackNumber":"112510000000001","ackDate":"'"$(TZ=Asia/Kolkata date +'%Y-%m-%d %H:%M:%S')"'","sellerGstin":"29AAACB1234C1Z5","invoiceNumber":"INV/SAMPLE/0001","totalInvoiceValue":118000}'
else
	data='{"id":"ewb_sample_'"$suffix"'","object":"ewaybill","status":"'"$status"'"}'
fi
body='{"id":"evt_sample_'"$suffix"'","type":"'"$type"'","createdAt":"'"$now"'","data":'"$data"'}'
signature="$(printf '%s.%s' "$t" "$body" | openssl dgst -sha256 -hmac "$secret" -r | cut -d' ' -f1)"

curl --silent --show-error --fail-with-body -X POST "$url" \
	-H 'Content-Type: application/json' \
	-H "Service-Signature: t=$t,v1=$signature" \
	--data-binary "$body"
echo
