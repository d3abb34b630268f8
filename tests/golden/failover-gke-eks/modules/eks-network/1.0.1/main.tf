# gpuplat module eks-network 1.0.1: generated, do not edit.
# Changes go into a new version folder; see CHANGELOG.md.

locals {
  zones = { for i, zone in var.zones : zone => i }
  # Private subnets take 1/8 of the VPC each: pods get VPC addresses, so they need room.
  # The last eighth is split into small public subnets for NAT gateways and load balancers.
  public_block = cidrsubnet(var.vpc_cidr, 3, 7)
  nat_zones    = var.nat_gateways == "per_zone" ? var.zones : [var.zones[0]]
}

resource "aws_vpc" "this" {
  #checkov:skip=CKV2_AWS_11:Flow logs need a destination (a log group or an S3 bucket) that organisations usually centralise per account; enable them there. The nodes' default security group is locked down below.
  cidr_block = var.vpc_cidr
  # The EKS private endpoint is resolved through the VPC's DNS.
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = merge(var.tags, { Name = var.name })
}

# Nothing uses the VPC's default security group; with no rules it cannot let anything in or out
# should something be attached to it by mistake.
resource "aws_default_security_group" "this" {
  vpc_id = aws_vpc.this.id

  tags = merge(var.tags, { Name = "${var.name}-default-unused" })
}

resource "aws_internet_gateway" "this" {
  vpc_id = aws_vpc.this.id

  tags = merge(var.tags, { Name = var.name })
}

resource "aws_subnet" "private" {
  for_each = local.zones

  vpc_id            = aws_vpc.this.id
  availability_zone = each.key
  cidr_block        = cidrsubnet(var.vpc_cidr, 3, each.value)

  tags = merge(var.tags, {
    Name                              = "${var.name}-private-${each.key}"
    "kubernetes.io/role/internal-elb" = "1"
  })
}

resource "aws_subnet" "public" {
  for_each = local.zones

  vpc_id            = aws_vpc.this.id
  availability_zone = each.key
  cidr_block        = cidrsubnet(local.public_block, 3, each.value)

  tags = merge(var.tags, {
    Name                     = "${var.name}-public-${each.key}"
    "kubernetes.io/role/elb" = "1"
  })
}

resource "aws_route_table" "public" {
  vpc_id = aws_vpc.this.id

  tags = merge(var.tags, { Name = "${var.name}-public" })
}

resource "aws_route" "public_internet" {
  route_table_id         = aws_route_table.public.id
  destination_cidr_block = "0.0.0.0/0"
  gateway_id             = aws_internet_gateway.this.id
}

resource "aws_route_table_association" "public" {
  for_each = local.zones

  subnet_id      = aws_subnet.public[each.key].id
  route_table_id = aws_route_table.public.id
}

resource "aws_eip" "nat" {
  for_each = toset(local.nat_zones)

  domain = "vpc"

  tags = merge(var.tags, { Name = "${var.name}-nat-${each.key}" })

  depends_on = [aws_internet_gateway.this]
}

resource "aws_nat_gateway" "this" {
  for_each = toset(local.nat_zones)

  allocation_id = aws_eip.nat[each.key].id
  subnet_id     = aws_subnet.public[each.key].id

  tags = merge(var.tags, { Name = "${var.name}-${each.key}" })

  depends_on = [aws_internet_gateway.this]
}

resource "aws_route_table" "private" {
  for_each = local.zones

  vpc_id = aws_vpc.this.id

  tags = merge(var.tags, { Name = "${var.name}-private-${each.key}" })
}

resource "aws_route" "private_egress" {
  for_each = local.zones

  route_table_id         = aws_route_table.private[each.key].id
  destination_cidr_block = "0.0.0.0/0"
  # Nodes pull images (e.g. from Docker Hub) and reach the EKS, ECR and STS APIs through NAT.
  nat_gateway_id = aws_nat_gateway.this[var.nat_gateways == "per_zone" ? each.key : var.zones[0]].id
}

resource "aws_route_table_association" "private" {
  for_each = local.zones

  subnet_id      = aws_subnet.private[each.key].id
  route_table_id = aws_route_table.private[each.key].id
}

# Model weights are tens of GB per node start: read from S3 through the gateway endpoint they
# cost nothing in transfer, through the NAT gateway they would pay its per-GB processing charge.
data "aws_vpc_endpoint_service" "s3" {
  service      = "s3"
  service_type = "Gateway"
}

resource "aws_vpc_endpoint" "s3" {
  vpc_id            = aws_vpc.this.id
  service_name      = data.aws_vpc_endpoint_service.s3.service_name
  vpc_endpoint_type = "Gateway"
  route_table_ids   = [for zone in var.zones : aws_route_table.private[zone].id]

  tags = merge(var.tags, { Name = "${var.name}-s3" })
}
