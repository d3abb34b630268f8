"""The price-list fixtures hold only the fields each provider documents, and the parsers read
only documented fields.

The fixtures in tests/cost/fixtures/pricelists/ are HAND-MADE, not recorded responses: the
machine they were written on has no network, so no real answer of these APIs could be recorded
(a recorded response would have to come from a machine that is online: `gpuplat prices update`
there writes what it read, with its SKU ids). What can be checked offline is their shape: every
object key in them is a field the provider's documentation names for that object, listed here
with the page it is read from. A recorded answer may hold more fields (the documentation is a
floor, not a schema); the parsers must then still find theirs, which is why the fields they
read are checked against the same lists.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from gpuplat.cost import pricelists

FIXTURES = Path(__file__).parent / "fixtures" / "pricelists"

AWS_DOC = (
    "https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/"
    "reading-service-price-list-file-for-services.html"
)
AWS = {
    "file": {
        "formatVersion",
        "disclaimer",
        "offerCode",
        "version",
        "publicationDate",
        "products",
        "terms",
    },
    "product": {"sku", "productFamily", "attributes"},
    "term": {
        "offerTermCode",
        "sku",
        "effectiveDate",
        "termAttributesType",
        "termAttributes",
        "priceDimensions",
    },
    # The page names the range fields startingRange / endingRange; EC2 offer files write
    # beginRange / endRange. Neither is read.
    "dimension": {
        "rateCode",
        "description",
        "unit",
        "startingRange",
        "endingRange",
        "beginRange",
        "endRange",
        "pricePerUnit",
        "appliesTo",
    },
}
EC2_ATTRIBUTES = {
    "instanceType",
    "operatingSystem",
    "tenancy",
    "preInstalledSw",
    "capacitystatus",
    "regionCode",
}
"""Product attributes the AWS parser reads: an EC2 offer file's own attribute names (the page
documents ``attributes`` as name/value pairs that differ by service)."""

AZURE_DOC = "https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices"
AZURE = {
    "page": {
        "BillingCurrency",
        "CustomerEntityId",
        "CustomerEntityType",
        "Items",
        "NextPageLink",
        "Count",
    },
    "item": {
        "currencyCode",
        "tierMinimumUnits",
        "reservationTerm",
        "retailPrice",
        "unitPrice",
        "armRegionName",
        "location",
        "effectiveStartDate",
        "effectiveEndDate",
        "meterId",
        "meterName",
        "productId",
        "skuId",
        "availabilityId",
        "productName",
        "skuName",
        "serviceName",
        "serviceId",
        "serviceFamily",
        "unitOfMeasure",
        "type",
        "isPrimaryMeterRegion",
        "armSkuName",
        "savingsPlan",
    },
}

GCP_DOC = "https://cloud.google.com/billing/v1/how-tos/catalog-api"
GCP = {
    "page": {"skus", "nextPageToken"},
    "sku": {
        "name",
        "skuId",
        "description",
        "category",
        "serviceRegions",
        "pricingInfo",
        "serviceProviderName",
        "geoTaxonomy",
    },
    "category": {"serviceDisplayName", "resourceFamily", "resourceGroup", "usageType"},
    "pricingInfo": {
        "effectiveTime",
        "summary",
        "pricingExpression",
        "aggregationInfo",
        "currencyConversionRate",
    },
    "pricingExpression": {
        "usageUnit",
        "usageUnitDescription",
        "baseUnit",
        "baseUnitDescription",
        "baseUnitConversionFactor",
        "displayQuantity",
        "tieredRates",
    },
    "tieredRate": {"startUsageAmount", "unitPrice"},
    "money": {"currencyCode", "units", "nanos"},
}


def _load(name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((FIXTURES / name).read_text("utf-8"))
    return data


def _values(mapping: object) -> Iterator[Mapping[str, object]]:
    assert isinstance(mapping, Mapping)
    for value in mapping.values():
        assert isinstance(value, Mapping)
        yield value


def test_the_aws_offer_file_excerpt_has_the_documented_fields() -> None:
    offer = _load("aws-ec2-us-east-1.json")
    assert set(offer) <= AWS["file"], AWS_DOC
    for sku, product in offer["products"].items():  # type: ignore[attr-defined]
        assert set(product) <= AWS["product"], (sku, AWS_DOC)
        assert product["sku"] == sku  # products are keyed by their SKU
    for kind, by_sku in offer["terms"].items():  # type: ignore[attr-defined]
        assert kind in ("OnDemand", "Reserved")
        for sku, terms in by_sku.items():
            for code, term in terms.items():
                assert set(term) <= AWS["term"], (code, AWS_DOC)
                assert code == f"{sku}.{term['offerTermCode']}"  # sku.offerTermCode
                for rate, dim in term["priceDimensions"].items():
                    assert set(dim) <= AWS["dimension"], (rate, AWS_DOC)
                    assert rate == dim["rateCode"] and set(dim["pricePerUnit"]) == {"USD"}


def test_the_azure_retail_prices_excerpt_has_the_documented_fields() -> None:
    page = _load("azure-retail-eastus.json")
    assert set(page) <= AZURE["page"], AZURE_DOC
    for item in page["Items"]:  # type: ignore[attr-defined]
        assert set(item) <= AZURE["item"], (set(item) - AZURE["item"], AZURE_DOC)


def test_the_billing_catalog_excerpt_has_the_documented_fields() -> None:
    page = _load("gcp-skus-us-central1.json")
    assert set(page) <= GCP["page"], GCP_DOC
    for sku in page["skus"]:  # type: ignore[attr-defined]
        assert set(sku) <= GCP["sku"], GCP_DOC
        assert set(sku["category"]) <= GCP["category"]
        for info in sku["pricingInfo"]:
            assert set(info) <= GCP["pricingInfo"]
            expression = info["pricingExpression"]
            assert set(expression) <= GCP["pricingExpression"]
            for tier in expression["tieredRates"]:
                assert set(tier) <= GCP["tieredRate"]
                assert set(tier["unitPrice"]) <= GCP["money"]


def test_the_parsers_read_only_documented_fields() -> None:
    source = Path(pricelists.__file__).read_text("utf-8")
    read = set(re.findall(r"""(?:\.get\(|\[)"(\w+)"[,)\]]""", source))
    documented = set().union(*AWS.values(), *AZURE.values(), *GCP.values(), EC2_ATTRIBUTES)
    # OnDemand (a term type) and USD (a currency in pricePerUnit) are keys of the
    # documented maps, not field names.
    assert read - documented <= {"OnDemand", "USD"}, read - documented
    assert {"instanceType", "armSkuName", "tieredRates", "pricePerUnit"} <= read
